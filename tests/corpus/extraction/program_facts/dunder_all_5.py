__all__ = ["a"]
__all__.extend(_get_exports_list(_os))
