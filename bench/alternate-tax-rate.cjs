// autocannon's setupRequest (a file, as its worker threads need): the flood's tariff updates set a
// tax rate of 15 and of 16 percent in turn, so that each update changes the row (and drops what
// was kept of the tariff) as a real edit does.
let requests = 0;

module.exports = (request) => {
  requests += 1;
  const body = JSON.parse(request.body);
  return { ...request, body: JSON.stringify({ ...body, tax_rate: 15 + (requests % 2) }) };
};
