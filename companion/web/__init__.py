"""The status page: live scoreboards and PIN-protected referee controls."""
