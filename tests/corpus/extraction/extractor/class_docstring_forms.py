class A:
    "single quoted"
class B:
    ("implicit "
     "concatenation")
class C:
    x = "not a docstring"
class D:
    r"""raw \n kept"""
