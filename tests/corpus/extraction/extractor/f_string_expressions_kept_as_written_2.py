raise E(f'{ x + 1 }')
