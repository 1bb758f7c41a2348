raise E('hex \x41\x62')
