"""Getting orders in: mail parsing, authentication, and collection from folders and IMAP."""
