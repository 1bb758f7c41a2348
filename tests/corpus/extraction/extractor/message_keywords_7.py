raise E(code, message='kw')
