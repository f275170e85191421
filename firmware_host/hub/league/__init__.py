"""What a game night's record says across games: luck, dice and records for other apps."""
