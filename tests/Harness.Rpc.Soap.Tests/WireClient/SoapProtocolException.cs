using System.Net;

namespace Harness.Rpc.Soap;

/// <summary>
/// The client's error for an answer that is not a SOAP reply or fault: an HTTP error without a fault body
/// (400, 405, 413, 415, ...), or a response that cannot be read as a SOAP 1.1 envelope.
/// </summary>
public sealed class SoapProtocolException : Exception
{
    /// <summary>Creates the exception for an answer with <paramref name="statusCode"/>.</summary>
    public SoapProtocolException(HttpStatusCode statusCode, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        StatusCode = statusCode;
    }

    /// <summary>The HTTP status the service answered with.</summary>
    public HttpStatusCode StatusCode { get; }
}
