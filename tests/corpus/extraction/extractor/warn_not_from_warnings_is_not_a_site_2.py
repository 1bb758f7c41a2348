warnings.warn('not imported')
