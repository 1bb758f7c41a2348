raise E('a' 'b' "c")
