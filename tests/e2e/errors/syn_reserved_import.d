/* import is reserved at the outer level too, not a probe name */
import
{
}
