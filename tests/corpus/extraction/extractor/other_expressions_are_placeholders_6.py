raise E('a' * 3)
