raise E(f'{x!s} {y!a}')
