raise E('\N{BULLET} item')
