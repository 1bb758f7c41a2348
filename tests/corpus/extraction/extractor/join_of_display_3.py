raise E(''.join(['a', 'b']))
