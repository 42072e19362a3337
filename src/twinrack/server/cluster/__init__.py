"""Many workers on one PostgreSQL database and one Redis (docs/deploy.md).

Each table has one owner at a time, by a lease with an epoch in the database
(:mod:`.leases`); commands and views travel between the worker holding a socket and the
owner through Redis (:mod:`.bus`); :mod:`.relay` is a socket's side of that, and
:mod:`.node` the worker's part in the cluster: renewing its leases, taking over tables
whose owner went silent, placing new tables, draining.
"""
