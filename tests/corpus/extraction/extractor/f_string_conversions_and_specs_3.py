raise E(f'{value:.2f}')
