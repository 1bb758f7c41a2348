raise E('a' + ('b' + ('c' + d)))
