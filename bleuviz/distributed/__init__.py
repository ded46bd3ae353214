"""The same rows and sums on Dask: score corpora past one machine, exactly.

An optional extra (``pip install bleuviz[dask]``); Dask is imported only in this
package. :mod:`~bleuviz.distributed.sources` cuts the inputs into aligned
partitions, :mod:`~bleuviz.distributed.partials` turns a partition into its
metrics' statistics on a worker and sums them exactly on the client,
:mod:`~bleuviz.distributed.engine` runs the tasks (a local cluster, a scheduler,
or the synchronous scheduler), :mod:`~bleuviz.distributed.run` drives them, and
:mod:`~bleuviz.distributed.poisson` resamples corpora too large to gather.
"""
