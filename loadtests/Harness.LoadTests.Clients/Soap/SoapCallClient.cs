using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>
/// A <c>--call</c>'s SOAP operation over <see cref="SoapTransport"/>: <c>text/xml; charset=utf-8</c> and the SOAPAction
/// header (SOAP 1.2: <c>application/soap+xml</c> with an <c>action</c> parameter). A fault is counted by its code
/// (<c>soap-fault-Client</c>, <c>soap-fault-Server</c>, or the SOAP 1.2 subcode), anything else other than 2xx by its
/// HTTP status (<c>http-503</c>); the server's time comes from a <c>harness-server-time-ms</c> header, if it sends one.
/// </summary>
internal sealed class SoapCallClient : ICallClient
{
    private static readonly SoapTransport.ReplyReader<CallReply> WholeReply = (reply, serverTime) => new CallReply(reply.ToArray(), serverTime);

    private readonly SoapTransport _transport;
    private readonly PreparedAction _action;

    /// <param name="headers">Extra HTTP headers (<c>--metadata</c>).</param>
    /// <param name="timeout">A call's whole time (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when null): past it, <c>timeout</c>.</param>
    /// <param name="maxReplySize">The largest reply body (<c>--max-message-size</c>): <c>response-too-large</c> past it.</param>
    /// <param name="loggerFactory">Where the HTTP/1.1 client's connection events are logged (<c>--log-level</c>); nowhere when null.</param>
    /// <param name="tls">An https:// endpoint's trust and client certificate; the system's trust when null.</param>
    public SoapCallClient(
        Uri endpoint, string soapAction, SoapVersion version, IReadOnlyList<KeyValuePair<string, string>> headers, TimeSpan? timeout = null,
        int maxReplySize = MessageSizes.Default, ILoggerFactory? loggerFactory = null, ClientTls? tls = null)
    {
        _transport = new SoapTransport(endpoint, version, headers, SoapFailureNames.ByCode, timeout, maxReplySize, loggerFactory, tls);
        _action = _transport.Prepare(soapAction);
    }

    public Task<CallReply> SendAsync(byte[] body, CancellationToken cancellationToken) =>
        _transport.PostAsync(body, _action, WholeReply, cancellationToken);

    /// <summary>The failure of a reply whose body is a fault, counted by its code; null when it holds none (or is not XML).</summary>
    public static CallFailedException? FaultIn(byte[] reply) =>
        SoapFaults.Read(reply) is { } fault ? new CallFailedException(SoapTransport.StatusOf(fault, SoapFailureNames.ByCode), $"{fault.Code}: {fault.Reason}") : null;

    public void Dispose() => _transport.Dispose();
}
