"""Cards: values, the catalog, and the behaviours of the cards the server automates."""
