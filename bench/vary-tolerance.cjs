// autocannon's setupRequest (a file, as its worker threads need): the flood's invoice checks ask with
// a tolerance of 0 and of 100 percent in turn, so that each check's outcome differs from the one kept
// before it and is written (a check whose outcome equals the kept one writes nothing).
let requests = 0;

module.exports = (request) => {
  requests += 1;
  const [path, query] = request.path.split('?');
  const params = new URLSearchParams(query);
  params.set('tolerance_pct', requests % 2 === 0 ? '0' : '100');
  return { ...request, path: `${path}?${params}` };
};
