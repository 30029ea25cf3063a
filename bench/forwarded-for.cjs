// autocannon's setupRequest (a file, as its worker threads need): each request comes through the
// proxy from one of FORWARDED_ADDRESSES client addresses in turn (X-Forwarded-For), as sign-ins of
// many clients behind one proxy do.
const addresses = Number(process.env.FORWARDED_ADDRESSES ?? 50);
let requests = 0;

module.exports = (request) => {
  requests += 1;
  const forwarded = `10.9.${Math.floor((requests % addresses) / 250)}.${(requests % addresses) % 250}`;
  return { ...request, headers: { ...request.headers, 'x-forwarded-for': forwarded } };
};
