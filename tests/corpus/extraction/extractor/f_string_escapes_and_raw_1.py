raise E(f'tab\t{x}\n')
