namespace Harness.Rpc.Grpc;

/// <summary>Options for the methods mapped by <see cref="GrpcEndpointRouteBuilderExtensions"/>.</summary>
/// <remarks>Named and defaulted like <c>Grpc.AspNetCore.Server.GrpcServiceOptions</c>.</remarks>
public sealed class GrpcServerOptions
{
    /// <summary>
    /// The largest request message, in bytes, a method accepts; a larger one ends the call with
    /// <see cref="GrpcStatusCode.ResourceExhausted"/> before its body is buffered.
    /// </summary>
    public int MaxReceiveMessageSize { get; set; } = 4 * 1024 * 1024;

    /// <summary>The largest response message, in bytes, a method sends; <see langword="null"/> for no limit.</summary>
    public int? MaxSendMessageSize { get; set; }
}
