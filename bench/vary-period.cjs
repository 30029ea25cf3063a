// autocannon's setupRequest (a file, as its worker threads need): every request of the flood asks
// for a period of its own, the path's start and end moved back by one more minute each time, so
// that no bill is priced twice (the service keeps bills) and each one costs a full pricing.
let requests = 0;

module.exports = (request) => {
  requests += 1;
  const [path, query] = request.path.split('?');
  const params = new URLSearchParams(query);
  for (const name of ['start', 'end']) {
    params.set(name, new Date(Date.parse(params.get(name)) - requests * 60_000).toISOString());
  }
  return { ...request, path: `${path}?${params}` };
};
