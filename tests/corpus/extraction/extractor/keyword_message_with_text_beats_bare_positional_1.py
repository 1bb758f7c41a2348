raise E(info, history, status=400, message=f"unexpected mimetype: {ctype}")
