namespace Harness.LoadTests.Clients.Http1;

/// <summary>
/// Where the parts of one HTTP/1.1 response lie in its connection's receive buffer, as <see cref="Http1Head"/> and the
/// body reader found them. Valid until the connection's next exchange.
/// </summary>
/// <param name="Status">The status code.</param>
/// <param name="BodyStart">The body's first byte (chunked bodies are joined in place).</param>
/// <param name="BodyLength">The body's length.</param>
/// <param name="CapturedStart">The captured header's value (<see cref="Http1Client"/>'s <c>captureHeader</c>); -1 when absent.</param>
/// <param name="CapturedLength">The captured value's length.</param>
/// <param name="KeepAlive">True when the connection may carry another request.</param>
internal readonly record struct Http1Response(int Status, int BodyStart, int BodyLength, int CapturedStart, int CapturedLength, bool KeepAlive);
