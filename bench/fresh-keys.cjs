// autocannon's setupRequest (a file, as its worker threads need): each body of the flood of objects
// gets keys no earlier body had, the placeholder `@@@@@@` of every key replaced by the request's
// number, so that the service meets new object shapes each time (as an attacker would send them).
let requests = 0;

module.exports = (request) => {
  requests += 1;
  return { ...request, body: request.body.replaceAll('@@@@@@', String(requests).padStart(6, '0')) };
};
