raise E((
    'a '
    'b'  # comment
    ' c'
))
