import warnings

def f(command):
    match command.split():
        case ["go", direction] if direction:
            warnings.warn(f"going {direction}")
        case ["quit"]:
            pass
        case _:
            raise ValueError(f"unknown {command}")
