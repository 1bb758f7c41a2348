raise E((x.y))
