"""Purchase: the request contract, the calculation and resolution documents, their explanations."""
