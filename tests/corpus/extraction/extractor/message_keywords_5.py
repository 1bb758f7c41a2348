raise E(detail='d', msg='m', message='x')
