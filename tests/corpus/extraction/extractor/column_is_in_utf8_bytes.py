x = 'é€'; raise E('after non-ASCII')
