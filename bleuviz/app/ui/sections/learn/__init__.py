"""The Learn page's sections: inputs, the steps and the comparisons."""
