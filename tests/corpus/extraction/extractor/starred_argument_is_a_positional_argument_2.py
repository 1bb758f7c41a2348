raise E(*args, 'literal')
