raise E(*args)
