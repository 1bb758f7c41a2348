raise E('dict {a: 1} and }{')
