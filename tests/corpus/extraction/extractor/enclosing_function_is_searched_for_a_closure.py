def outer():
    msg = "outer"
    def inner():
        raise E(msg)


def requires(feature):
    message = f"the feature {feature} is not enabled"

    def decorator(function):
        def wrapper(*args, **kwargs):
            if not enabled(feature):
                raise RuntimeError(message)
            return function(*args, **kwargs)

        return wrapper

    message = f"the feature {feature} is switched off"
    return decorator


def shadowed(message):
    def check():
        raise ValueError(message)


class Holder:
    text = "class bodies do not enclose"

    def method(self):
        raise ValueError(text)


text = "the module's text"
