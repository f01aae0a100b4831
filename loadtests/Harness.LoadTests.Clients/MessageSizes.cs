using Harness.Contracts;

namespace Harness.LoadTests.Clients;

/// <summary>
/// The largest reply message a client takes (<c>--max-message-size</c>): a gRPC message (the lean client's length
/// prefix, Grpc.Net.Client's MaxReceiveMessageSize) or a SOAP reply's body (the lean HTTP/1.1 client's bound, HttpClient's
/// buffer over HTTPS, WCF's MaxReceivedMessageSize). A reply past it fails its call (gRPC's RESOURCE_EXHAUSTED, SOAP's
/// <c>response-too-large</c>) instead of growing the runner by what a server sends.
/// </summary>
public static class MessageSizes
{
    /// <summary>Grpc.Net.Client's default MaxReceiveMessageSize, 4 MiB, for every client (the channel's own default).</summary>
    public const int Default = LoadChannel.DefaultMaxReceiveMessageSize;

    /// <summary>Below 1 KiB not even a SOAP fault fits.</summary>
    public const int Min = 1024;

    /// <summary>1 GiB: the lean gRPC client's stream window (twice the message, at most 2^31-1) still holds the message.</summary>
    public const int Max = 1 << 30;
}
