raise E('')
