raise E('unknown \q \d')
