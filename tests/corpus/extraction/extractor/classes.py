class ShopError(Exception):
    """Base of all shop errors.

    Raised by every module.
        Indented detail.
    """

class OutOfStock(errors.ShopError, metaclass=Meta):
    '''Raised when an item is out of stock.'''
    class Detail(object):
        """  leading blanks dropped"""

@decorator
class Plain:
    pass

def factory():
    class Local(ShopError):
        """not recorded"""
    return Local
