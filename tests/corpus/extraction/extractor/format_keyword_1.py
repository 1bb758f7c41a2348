raise E('{name} is {age}'.format(name=n, age=person.age))
