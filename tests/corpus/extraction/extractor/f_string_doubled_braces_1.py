raise E(f'{{literal}} {x}')
