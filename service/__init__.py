"""The seat service: the FastAPI app behind `bangarena serve`."""
