using System.Xml;

namespace Harness.Rpc.Soap;

/// <summary>
/// Per-endpoint settings. The defaults are those of WCF's <c>BasicHttpBinding</c> and its reader quotas.
/// </summary>
public sealed class SoapEndpointOptions
{
    /// <summary>The largest request body accepted, in bytes; a larger one is answered with HTTP 413.</summary>
    public long MaxReceivedMessageSize { get; set; } = 65536;

    /// <summary>The deepest element nesting accepted, counted from the envelope.</summary>
    public int MaxDepth { get; set; } = 32;

    /// <summary>The longest string content accepted in any element.</summary>
    public int MaxStringContentLength { get; set; } = 8192;

    /// <summary>The longest array the serializer reads.</summary>
    public int MaxArrayLength { get; set; } = 16384;

    /// <summary>The most bytes the reader returns per read, which bounds the size of a start tag and its attributes.</summary>
    public int MaxBytesPerRead { get; set; } = 4096;

    /// <summary>The most characters of element and attribute names the reader keeps.</summary>
    public int MaxNameTableCharCount { get; set; } = 16384;

    /// <summary>
    /// The counterpart of CoreWCF's <c>DispatchRuntime.SynchronizationContext</c>. Called once, on the endpoint's first
    /// request, with the application's services. When it returns a context, every operation invocation is posted to it
    /// and runs with it as <see cref="SynchronizationContext.Current"/>; when it returns null (or is unset), synchronous
    /// operations run inline on the request thread.
    /// </summary>
    public Func<IServiceProvider, SynchronizationContext?>? SynchronizationContextFactory { get; set; }

    /// <summary>
    /// Sends the exception's message and a WCF-shaped <c>ExceptionDetail</c> in faults for unhandled exceptions, instead
    /// of WCF's generic internal-error text; for debugging only.
    /// </summary>
    public bool IncludeExceptionDetailInFaults { get; set; }

    /// <summary>
    /// Publishes the endpoint's metadata for GET requests, as CoreWCF's <c>ServiceMetadataBehavior.HttpGetEnabled</c>
    /// does: WSDL 1.1 at <c>?wsdl</c> (schemas imported from <c>?xsd=xsdN</c>) and <c>?singleWsdl</c> (schemas
    /// inline), and a DISCO document at <c>?disco</c>, generated from the contract's operations and data contracts, with
    /// the port address taken from the request. Off by default, as in CoreWCF.
    /// </summary>
    public bool HttpGetEnabled { get; set; }

    /// <summary>
    /// Answers other GET requests with WCF's HTML help page (200), as CoreWCF's
    /// <c>ServiceDebugBehavior.HttpHelpPageEnabled</c> does. When it is off, such a GET is an ordinary request without a
    /// body: a 400.
    /// </summary>
    public bool HttpHelpPageEnabled { get; set; } = true;

    internal XmlDictionaryReaderQuotas CreateReaderQuotas()
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxReceivedMessageSize);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxDepth);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxStringContentLength);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxArrayLength);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxBytesPerRead);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(MaxNameTableCharCount);
        return new XmlDictionaryReaderQuotas
        {
            MaxDepth = MaxDepth,
            MaxStringContentLength = MaxStringContentLength,
            MaxArrayLength = MaxArrayLength,
            MaxBytesPerRead = MaxBytesPerRead,
            MaxNameTableCharCount = MaxNameTableCharCount,
        };
    }
}
