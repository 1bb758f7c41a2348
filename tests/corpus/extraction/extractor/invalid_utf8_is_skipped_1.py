x = 'été'  # Latin-1
raise E('x')
