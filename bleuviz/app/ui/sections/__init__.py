"""Page sections: what the pages lay out, built from the core's frames and figures."""
