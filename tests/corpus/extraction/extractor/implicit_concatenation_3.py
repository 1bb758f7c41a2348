raise E('text ' f'{x}' ' {y}')
