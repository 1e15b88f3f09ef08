"""Where the product finds its files and reads them: shipped config, a casino's folder."""
