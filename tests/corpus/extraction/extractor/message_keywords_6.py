raise E(code=3, detail=f'{x}')
