raise E((('double')))
